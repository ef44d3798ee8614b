"""Approfondimenti: il blocco del transformer"""
