"""Come impara"""
