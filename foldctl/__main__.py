from foldctl.cli.main import main

main()
