"""The four endpoints the bench calls, at the paths of the account server."""
from django.urls import path
from rest_framework_simplejwt.views import TokenRefreshView

from accounts.views import LoginView, MeView, SignUpView

urlpatterns = [
    path("auth/signup", SignUpView.as_view()),
    path("auth/login", LoginView.as_view()),
    path("auth/refresh", TokenRefreshView.as_view()),
    path("auth/me", MeView.as_view()),
]
