"""Le fasi del training"""
