"""The maths the labs show, in plain Python (standard library only).

The same code runs in CPython at build time and in Pyodide in the browser.
"""
