"""Un training vero, nel browser"""
