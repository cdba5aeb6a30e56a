"""Helpers shared by the test modules: small models, loaders, trainers and leak checks."""
