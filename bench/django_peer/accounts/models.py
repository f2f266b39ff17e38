"""The account: Django's user with a unique email address, an MBTI type and a verified flag."""
from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    email = models.EmailField(unique=True)
    mbti = models.CharField(max_length=4)
    email_verified = models.BooleanField(default=False)
    email_code_hash = models.CharField(max_length=64, blank=True)
