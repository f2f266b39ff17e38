"""Sign-up, login and me, written the way a DRF + SimpleJWT project usually writes them.
Refresh is SimpleJWT's own TokenRefreshView (see peer/urls.py)."""
import hashlib
import secrets

from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.core.mail import send_mail
from rest_framework import generics, serializers, status
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.tokens import RefreshToken

from .models import User

MBTI_TYPES = [a + b + c + d for a in "EI" for b in "SN" for c in "TF" for d in "JP"]


class UserSerializer(serializers.ModelSerializer):
    created_at = serializers.DateTimeField(source="date_joined", read_only=True)

    class Meta:
        model = User
        fields = ["id", "username", "email", "email_verified", "mbti", "created_at"]


class SignUpSerializer(serializers.ModelSerializer):
    password = serializers.CharField(write_only=True)
    mbti = serializers.ChoiceField(choices=MBTI_TYPES)

    class Meta:
        model = User
        fields = ["username", "email", "password", "mbti"]

    def validate_email(self, value):
        return value.lower()

    def validate(self, attrs):
        validate_password(attrs["password"], User(username=attrs["username"], email=attrs["email"]))
        return attrs

    def create(self, validated):
        return User.objects.create_user(**validated)


class SignUpView(APIView):
    """Creates an unverified account and mails it a 6-digit code (kept only as a hash)."""
    permission_classes = [AllowAny]
    authentication_classes = []

    def post(self, request):
        serializer = SignUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.save()
        code = f"{secrets.randbelow(1_000_000):06d}"
        user.email_code_hash = hashlib.sha256(code.encode()).hexdigest()
        user.save(update_fields=["email_code_hash"])
        send_mail("Your MBTI Playground code", f"Your code is {code}.", None, [user.email])
        return Response({"email": user.email, "verification": "code_sent", "expires_in": 600},
                        status=status.HTTP_202_ACCEPTED)


class LoginSerializer(serializers.Serializer):
    login = serializers.CharField()
    password = serializers.CharField()


class LoginView(APIView):
    """Username or email address and password; a verified account gets a token pair."""
    permission_classes = [AllowAny]
    authentication_classes = []

    def post(self, request):
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        login = serializer.validated_data["login"]
        if "@" in login:
            login = User.objects.filter(email=login.lower()).values_list("username", flat=True).first() or login
        user = authenticate(request, username=login, password=serializer.validated_data["password"])
        if user is None:
            raise AuthenticationFailed("The nickname, email address or password is incorrect.")
        if not user.email_verified:
            raise PermissionDenied("Verify your email address first.")
        refresh = RefreshToken.for_user(user)
        return Response({"access": str(refresh.access_token), "refresh": str(refresh), "token_type": "Bearer",
                         "expires_in": 900, "user": UserSerializer(user).data})


class MeView(generics.RetrieveAPIView):
    serializer_class = UserSerializer

    def get_object(self):
        return self.request.user
