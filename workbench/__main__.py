"""``python -m workbench`` runs the command line."""
from .cli import main

main()
