"""Small helper modules the pages are built from, one concern each."""
