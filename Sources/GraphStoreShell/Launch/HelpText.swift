/// `graphstore --help`.
enum HelpText {
    static let text = """
        graphstore \(GraphStoreVersion.string): a shell for Core Data SQLite stores

        Usage: graphstore [OPTIONS] [STORE [COMMAND...]]

        Opens STORE (read-only unless --write) with the model it carries, or --model.
        Commands given with -c, -f or after STORE run in order, then graphstore exits;
        otherwise commands are read from standard input: at a terminal with a prompt,
        line editing, history and TAB completion; from a pipe silently. Type .help at
        the prompt for the commands.

        Options:
          -c, --command CMD    run CMD (repeatable; standard input is then not read)
          -f, --file FILE      run the commands in FILE (repeatable)
              --mode MODE      output mode: table box csv tsv json jsonl line markdown
              --json           same as --mode json
              --headers        print header rows (the default)
              --no-headers     leave header rows out
              --nullvalue TEXT show NULL as TEXT
              --bail           stop at the first error (the default when not interactive)
              --no-bail        carry on after errors; exit with the last failure's status
              --write          allow changes to the store
              --model PATH     open the store with this model (.xcdatamodeld, .xcdatamodel, .mom)
              --init FILE      run FILE first, instead of ~/.graphstorerc
              --no-rc          do not read ~/.graphstorerc
          -h, --help           show this help and exit
          -V, --version        show the version and exit

        Exit status:
          0  success
          1  a command failed (or a script could not be read)
          2  usage error (a wrong option or value)
          3  validate found validation failures
          4  the store could not be opened
          A closed standard output pipe (| head -1) ends graphstore by SIGPIPE, as cat.

        Environment:
          GRAPHSTORE_HISTORY  history file (default ~/.graphstore_history; empty: none)
          NO_COLOR            when set, no colour
          EDITRC              libedit settings file (default ~/.editrc; "bind -v" for vi keys)

        Examples:
          graphstore App.sqlite                       # interactive
          graphstore App.sqlite .entities             # one command, as with sqlite3
          graphstore --json App.sqlite -c '.rows Book 10'
          graphstore --no-rc App.sqlite < checks.graphstore

        See graphstore(1) for the full manual.

        """
}
