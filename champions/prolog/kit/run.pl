% run.pl -- runs a Prolog champion under the protocol of protocol.md.
%
% Usage: swipl run.pl path/to/prologin.pl, started by the champion's launcher with the
% protocol on descriptors 3 (the referee's lines) and 4 (our requests), fd 0 on /dev/null
% and fd 1 on stderr, so that write/1 and format/2 go to the log (and a program the
% champion starts writes its output there too). Loads the kit (this
% folder: api.pl, constants.pl) into module user, consults the champion file, whose
% predicates init_game/0, jouer/0, enchere/0, placement/0 and end_game/0 are the
% callbacks (or, in the 2010 form, the same names of arity 1: `jouer(void) :- ...`),
% then serves them. A champion file that is not UTF-8 is read as Latin-1 (2010's files
% were).
:- use_module(api).
:- use_module(library(utf8)).
:- initialization(main, main).

main :-
    current_prolog_flag(argv, Argv),
    (   Argv = [Path]
    ->  true
    ;   format(user_error, "usage: swipl run.pl path/to/prologin.pl~n", []),
        halt(2)
    ),
    % Prolog cannot open a descriptor by its number, and a jailed champion may not
    % reopen a pipe through /proc, so two `cat` relays carry the lines; each closes the
    % other descriptor, so that the referee sees our stdout close when we exit.
    catch(( open(pipe('exec cat <&3 4>&-'), read, In, [encoding(octet)]),
            open(pipe('exec cat >&4 3<&-'), write, Out, [encoding(octet), buffer(full)]) ),
          E,
          ( format(user_error, "prologin kit (Prolog): cannot start the protocol relays (cat): ~q~n", [E]),
            halt(2) )),
    (   file_is_utf8(Path)
    ->  load_files(user:Path, [])
    ;   load_files(user:Path, [encoding(iso_latin_1)])
    ),
    serve(In, Out, Status),
    halt(Status).

% Whether the file at Path is valid UTF-8 (plain ASCII is).
file_is_utf8(Path) :-
    read_file_to_codes(Path, Bytes, [encoding(octet)]),
    phrase(utf8_codes(_), Bytes).
