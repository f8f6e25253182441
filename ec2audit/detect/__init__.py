"""Leak detectors: each tier finds where a sensitive unit's value reached a payload."""
