"""Live updates on the ASGI service: the per-process wake-up hub (`fanout`), the limits on open
streams (`leases`), and the pieces the API's and the pages' async views share (`sse`)."""
