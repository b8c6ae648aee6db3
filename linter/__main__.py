from clusterlint.cli import main

main()
