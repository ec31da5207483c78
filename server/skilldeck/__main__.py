from skilldeck.cli.main import main

raise SystemExit(main())
