"""Reflection on finished battles."""
