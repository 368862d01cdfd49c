"""``python -m workbench`` runs the command line."""
from workbench.cli.main import main

main()
