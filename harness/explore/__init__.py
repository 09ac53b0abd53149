"""Differential exploration of reference@V against claude@V (grammar, observation, driver)."""
