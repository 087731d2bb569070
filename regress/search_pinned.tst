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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" 11 6 "" "" "" ""\n"" "" "" 14 21 12 9 "" ""\n"" "" 26 7 "" 75 3 "" ""\n"" "" 23 22 21 6 "" "" ""\n"" "" "" 2 9 8 25 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [C4 E4 F4 F3 G3 G4 F5 E5 F6]
30 kosumi-winrate
#? [black C4 win rate 52\.1% visits 259 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [D4]
50 genmove b
#? [D4]
60 lz-genmove_analyze w 0
#? [\ninfo move C5 visits 193 winrate 5181 prior 360 lcb 4480 order 0 pv C5 C3 B3 B2 D3 C2 E3 B4 B5 A3 D5 E4 E6 F6 F7 G7 G6 E7 info move D3 visits 166 winrate 4669 prior 457 lcb 3926 order 1 pv D3 E3 C3 C5 B5 C6 B6 C7 B7 B8 A8 C8 E2 F3 F2 G3 G2 H2 info move C3 visits 117 winrate 4530 prior 366 lcb 3657 order 2 pv C3 D3 D2 E2 C2 C5 B5 C6 B6 C7 B7 B8 A8 C8 B9 C9 G5 info move D6 visits 8 winrate 5000 prior 242 lcb 2152 order 3 pv D6 E6 E7 F7\nplay C5]
70 kosumi-pv
#? [C3 B3 B2 D3 C2 E3 B4 B5 A3 D5 E4 E6 F6 F7 G7 G6 E7 D6]

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
#? [black D9 win rate 75\.0% visits 20 playouts 150]
120 kosumi-pv w
#? [H4 F4 D4 D6]
