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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" 1 3 "" "" "" "" ""\n"" "" "" 3 21 9 14 "" ""\n"" "" 2 26 6 "" 44 "" ""\n"" "" "" 24 "" 26 17 "" ""\n"" "" 39 7 2 2 1 "" ""\n"" "" 2 1 7 26 10 7 ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [G6 E6 E7 D7]
30 kosumi-winrate
#? [black G6 win rate 47\.7% visits 109 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [C3]
50 genmove b
#? [D3]
60 lz-genmove_analyze w 0
#? [\ninfo move D4 visits 114 winrate 4956 prior 233 lcb 4055 order 0 pv D4 E4 E3 F4 F3 G3 info move E6 visits 41 winrate 4390 prior 207 lcb 2989 order 1 pv E6 F5 F6 G6 G5 info move C3 visits 36 winrate 3472 prior 259 lcb 2134 order 2 pv C3 D4 C5 C7 D7 info move F3 visits 33 winrate 5758 prior 233 lcb 4081 order 3 pv F3 C3 D4 E4 E3 F4 info move F4 visits 31 winrate 5484 prior 207 lcb 3777 order 4 pv F4 F5 E4 G4 info move G4 visits 28 winrate 4643 prior 207 lcb 2953 order 5 pv G4 C3 D4 E4 E3 info move F7 visits 26 winrate 5000 prior 207 lcb 3206 order 6 pv F7 D7 C3 D4 info move E4 visits 24 winrate 4375 prior 233 lcb 2617 order 7 pv E4 D4 C3 F4 info move D7 visits 22 winrate 5000 prior 207 lcb 3072 order 8 pv D7 C3 D4 E3 E4 info move H6 visits 18 winrate 6667 prior 103 lcb 4375 order 9 pv H6 C3 D4 E4 info move F6 visits 12 winrate 5000 prior 207 lcb 2538 order 10 pv F6 E6 E7 info move C6 visits 4 winrate 0 prior 207 lcb 0 order 11 pv C6 C3 info move D6 visits 3 winrate 0 prior 207 lcb 0 order 12 pv D6 E6 info move E3 visits 2 winrate 5000 prior 233 lcb 945 order 13 pv E3 info move G5 visits 2 winrate 0 prior 207 lcb 0 order 14 pv G5 info move F2 visits 1 winrate 0 prior 103 lcb 0 order 15 pv F2 info move D5 visits 1 winrate 0 prior 233 lcb 0 order 16 pv D5 info move C7 visits 1 winrate 0 prior 207 lcb 0 order 17 pv C7\nplay D4]
70 kosumi-pv
#? [E4 D5 E3 D6 E6 E7 F6]

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
#? [black K7 win rate 58\.6% visits 29 playouts 150]
120 kosumi-pv w
#? [D7 C8 C7 D8]
