"""The HTTP API's blueprints, one per feature (all mounted under /api/v1)."""
