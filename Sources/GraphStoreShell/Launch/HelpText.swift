/// `graphstore --help`.
enum HelpText {
    static let text = """
        graphstore \(GraphStoreVersion.string): a shell for Core Data SQLite stores

        Usage: graphstore [OPTIONS] [STORE [COMMAND...]]
               graphstore codegen --model MODEL (--output DIR | --output-file FILE) [--all]
               graphstore verify [OPTIONS] [--json] [--expect FILE] STORE
               graphstore diff [OPTIONS] [--key ENTITY=ATTR] [--json] [--script FILE] [--exit-code] OLD NEW

        Opens STORE (read-only unless --write) with the model it carries, or --model.
        Commands given with -c, -f or after STORE run in order, then graphstore exits;
        otherwise commands are read from standard input: at a terminal with a prompt,
        line editing, history and TAB completion; from a pipe silently. Type .help at
        the prompt for the commands. Long options take one dash or two (-json, --json).
        codegen writes the Swift classes of MODEL's entities (Codegen: Class Definition or
        Category/Extension; --all: every entity), one file per entity, for the typed API.

        Options:
          -c, --command CMD    run CMD (repeatable; standard input is then not read)
          -f, --file FILE      run the commands in FILE (repeatable)
              --cmd CMD        run CMD first, then read standard input as usual
              --mode MODE      output mode: table box csv tsv json jsonl line list markdown html
              --json, --csv, --tsv, --line, --list, --box, --table, --markdown, --html
                               the same as --mode json and so on (--tabs is --tsv)
              --json-document  write the whole run as one JSON document: an entry per
                               command (rows, text, error); with --jsonl, one line per
                               row, text or error, each tagged with its command
              --headers        print header rows (the default; also --header)
              --no-headers     leave header rows out (also --noheader)
              --nullvalue TEXT show NULL as TEXT
              --separator SEP  separate values with SEP in list and csv modes
              --newline SEP    end rows with SEP in list and csv modes
              --bail           stop at the first error (the default when not interactive)
              --no-bail        carry on after errors; exit with the last failure's status
              --echo           print each command before it runs
              --write          allow changes to the store
              --readonly       open the store read-only (the default)
              --discard-unsaved  let a script end with unsaved changes without failing
              --strict         exit with status 6 after a warning (values shown in place, validate's storage anomalies)
              --model PATH     open the store with this model (.xcdatamodeld, .xcdatamodel, .mom)
              --browse-mismatch  a store that does not match --model opens read-only with its own model
              --create         make STORE: an empty store for --model's current version
                               (needs --write; an existing file is refused)
              --init FILE      run FILE first, instead of ~/.graphstorerc
              --no-rc          do not read ~/.graphstorerc
          -h, --help           show this help and exit
          -V, --version        show the version and exit

        Exit status:
          0  success
          1  a command failed (or a script could not be read)
          2  usage error (a wrong option or value)
          3  validate found validation failures, or a verify check failed
          4  the store could not be opened
          5  a script ended with unsaved changes (discarded; see --discard-unsaved)
          6  with --strict: a warning was given (values shown in place, storage anomalies)
          A closed standard output pipe (| head -1) ends graphstore by SIGPIPE, as cat.

        Environment:
          GRAPHSTORE_HISTORY  history file (default ~/.graphstore_history; empty: none)
          PAGER               pager for results taller than the terminal (default less -FRSX;
                              empty: none)
          NO_COLOR            when set, no colour
          EDITRC              libedit settings file (default ~/.editrc; "bind -v" for vi keys)

        Examples:
          graphstore App.sqlite                       # interactive
          graphstore App.sqlite .entities             # one command, as with sqlite3
          graphstore -json App.sqlite -c '.rows Book 10'
          graphstore --no-rc App.sqlite < checks.graphstore

        See graphstore(1) for the full manual.

        """
}
