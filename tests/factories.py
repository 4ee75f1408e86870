import factory
from allauth.account.models import EmailAddress
from factory.django import DjangoModelFactory

from accounts.models import User

PASSWORD = "backgammon"


class UserFactory(DjangoModelFactory):
    """A player with a verified e-mail address and the password ``backgammon``.

    ``UserFactory(verified=False)`` leaves the address unverified.
    """

    class Meta:
        model = User
        django_get_or_create = ["username"]
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: user.username.capitalize())
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def verified(self, create: bool, extracted: bool | None, **kwargs: object) -> None:
        if create:
            EmailAddress.objects.get_or_create(
                user=self,
                email=self.email,
                defaults={"verified": extracted is not False, "primary": True},
            )
