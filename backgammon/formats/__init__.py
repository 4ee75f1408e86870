"""The project's date and number formats where Django's own need a correction
(``FORMAT_MODULE_PATH``): one package per language, as ``django/conf/locale`` has."""
