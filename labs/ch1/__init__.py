"""Dal testo al modello"""
