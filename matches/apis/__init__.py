"""REST endpoints (design §3), one view per operation and one module per concern. A view is
thin: input serializer → service or selector → output serializer. Views write nothing themselves."""
