"""The benchmark peer: the original app's backend stack, set up as a careful deployment would.

Django REST framework with SimpleJWT (refresh rotation and blacklist after rotation on), Django's
default password hasher (PBKDF2-SHA256), SQLite in WAL mode, DEBUG off, persistent database
connections. Only the bench runs it: the secret key is fixed and every path comes from the
environment (PEER_DB, the SQLite file; PEER_MAIL_DIR, where sign-up mail is written).
"""
import os
from datetime import timedelta

SECRET_KEY = "bench-peer-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "rest_framework_simplejwt.token_blacklist",
    "accounts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "peer.urls"
WSGI_APPLICATION = "peer.wsgi.application"
AUTH_USER_MODEL = "accounts.User"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("PEER_DB", "peer.sqlite"),
        "CONN_MAX_AGE": None,
        # Django 5.1's advice for SQLite under concurrent writers: WAL (set once on the file by the
        # seeder), synchronous=NORMAL as the account server uses, IMMEDIATE transactions and a
        # generous busy timeout so writers queue instead of failing with "database is locked".
        "OPTIONS": {
            "init_command": "PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }
}

# Django's startproject defaults: PBKDF2-SHA256 first (1,000,000 iterations in Django 5.2) and
# the four password validators.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = os.environ.get("PEER_MAIL_DIR", "mail")
DEFAULT_FROM_EMAIL = "no-reply@bench.test"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework_simplejwt.authentication.JWTAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
}

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=15),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=30),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
