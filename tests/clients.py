"""Logged-in clients for the demo's users by name (alice, bob, organizer...): the API's and the pages'."""

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient


def user_named(name: str):  # type: ignore[no-untyped-def]
    return get_user_model().objects.get(username=name)


def api_as(name: str) -> APIClient:
    client = APIClient()
    client.force_authenticate(user_named(name))
    return client


def pages_as(name: str) -> Client:
    client = Client()
    client.force_login(user_named(name))
    return client
