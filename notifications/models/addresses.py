"""An account's e-mail address: at most one, unique regardless of case, verified by a signed link."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class EmailAddress(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_address")
    address = models.EmailField(max_length=254)
    # Set when the owner opened the link sent to this very address; a new address starts unverified.
    verified_at = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("address"), name="email_address_unique_any_case")]

    @property
    def verified(self) -> bool:
        return self.verified_at is not None
