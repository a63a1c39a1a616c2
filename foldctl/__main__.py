from foldctl.cli import main

main()
