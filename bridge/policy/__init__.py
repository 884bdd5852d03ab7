"""Policy: what each agent may do, the classifier that rates actions, and remembered grants."""
