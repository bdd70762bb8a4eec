"""Django's PostgreSQL backend with a health check that costs no round trip while the connection is
quiet (briternia/postgresql/base.py; settings.DATABASES names it)."""
