import subprocess
import sys


def test_importing_the_engine_pulls_in_no_django_or_celery() -> None:
    code = (
        "import sys, gammon, gammon.jsonio;"
        "roots = ('django', 'celery', 'rest_framework');"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in roots);"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
