"""Every read of the notifications app."""
