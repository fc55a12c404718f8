from banker.cli import main

raise SystemExit(main())
