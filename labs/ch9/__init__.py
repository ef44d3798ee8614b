"""Dentro il modello"""
