from tfadvisor.cli.entry import main

main()
