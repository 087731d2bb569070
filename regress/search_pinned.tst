# Pinned search results: exact visits, principal variations and moves at a
# fixed seed with one thread and fixed playouts. Not a strength test: any
# change in what the search does (priors, playouts, UCT, tree reuse, the
# random sequence) shows here as a failure, so that a change in behaviour
# is always seen and reviewed. When the change is intended, regenerate the
# expectations and review the diff (see regress/README.md):
#   KOSUMI_REGENERATE=1 cargo test --release --test regress -- --ignored regenerate_pinned
# The suite sets everything it depends on itself.
kosumi-param seed 1
kosumi-param threads 1
kosumi-param playouts 300
kosumi-param ownership_playouts 100

# Go 9x9, empty board, Black to move: visits as GoGui's sboard shows them,
# then the principal variation and the win rate (same position: the tree
# grows by 300 playouts each time).
boardsize 9
clear_board
komi 7
10 kosumi-visits
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" 8 "" 6 "" 9 "" ""\n"" "" 4 10 8 3 9 "" ""\n"" "" "" 36 "" 97 "" "" ""\n"" "" "" 12 2 18 "" "" ""\n"" "" 28 "" 31 "" 19 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [C6 E6 E4 D5 D4 C5 C4 B5 B4 B6 C7 B7 B8 A8 C8]
30 kosumi-winrate
#? [black C6 win rate 54\.9% visits 255 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [C5]
50 genmove b
#? [C5]
60 lz-genmove_analyze w 0
#? [\ninfo move B5 visits 217 winrate 5161 prior 377 lcb 4499 order 0 pv B5 D4 D3 C3 B4 C6 B6 C7 B7 B8 C2 E3 D2 info move D4 visits 187 winrate 4866 prior 431 lcb 4160 order 1 pv D4 D5 E4 F4 F3 G3 G4 F5 G5 G6 H6 G7 H7 H8 J8 G8 info move D5 visits 77 winrate 5000 prior 326 lcb 3910 order 2 pv D5 D6 D4 C6 E6 E7 F6 F7 G6 info move B4 visits 9 winrate 3889 prior 269 lcb 1534 order 3 pv B4 D4 D3 E3 E2 info move C6 visits 7 winrate 4286 prior 263 lcb 1582 order 4 pv C6 D6 D7 C7\nplay B5]
70 kosumi-pv
#? [C6 D4 E4 E3 F3 F2 G2 G3 F4 H2 H3 G4 G5 H4 H5 J3 E2 D3 F1 D5 D6 E6 E7 F6]

# NoGo 7x7.
kosumi-game nogo
boardsize 7
80 kosumi-visits
#? [\n"" 1 7 "" "" "" ""\n"" "" "" "" "" "" ""\n6 "" "" "" 1 1 ""\n7 "" "" "" "" "" 2\n7 1 "" "" "" 2 ""\n"" 3 33 2 "" 15 ""\n1 "" 2 206 3 "" ""]
90 genmove b
#? [D1]
100 kosumi-pv
#? [D6 E2 G3 B2 A6 F1]

# Go 13x13 with a smaller budget.
kosumi-game go
boardsize 13
kosumi-param playouts 150
110 kosumi-winrate
#? [black D7 win rate 48\.1% visits 27 playouts 150]
120 kosumi-pv w
#? [D7 D9 F9 E8]
