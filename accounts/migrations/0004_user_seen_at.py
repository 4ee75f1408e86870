from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_user_session_epoch_username_lower_unique")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="seen_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
