"""geometry package."""
