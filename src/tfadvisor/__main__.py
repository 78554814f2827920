from tfadvisor.cli.main import main

main()
