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
#? [\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" 22 3 6 2 "" ""\n"" "" 41 10 5 3 1 "" ""\n"" "" 11 9 "" 52 18 "" ""\n"" "" "" 15 3 10 "" "" ""\n"" "" 3 9 55 1 21 "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [D5 F5 E6 F6 F7 G7 G8 E7 F8]
30 kosumi-winrate
#? [black D5 win rate 50\.4% visits 119 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [D4]
50 genmove b
#? [C6]
60 lz-genmove_analyze w 0
#? [\ninfo move D6 visits 197 winrate 4924 prior 336 lcb 4234 order 0 pv D6 D5 C5 D7 C7 E6 B6 D6 D8 E8 C8 D4 D3 E3 E2 C3 D2 F3 F2 G3 info move E3 visits 83 winrate 4759 prior 311 lcb 3719 order 1 pv E3 G3 F4 F5 G4 G5 H4 H5 H3 H2 G2 info move C7 visits 58 winrate 4052 prior 336 lcb 2886 order 2 pv C7 D7 D6 E6 E7 D8 F7 B7 info move G4 visits 57 winrate 5088 prior 237 lcb 3826 order 3 pv G4 G3 F4 F3 E4 E3 info move E4 visits 55 winrate 4364 prior 284 lcb 3137 order 4 pv E4 F4 F3 E3 D4 G3 F2 G4 G2 info move E7 visits 53 winrate 3962 prior 338 lcb 2759 order 5 pv E7 F6 F7 G7 G6 G5 H6 H5 H7 G8 H8 F8 E6 info move F3 visits 17 winrate 2941 prior 237 lcb 1328 order 6 pv F3 E3 F4 F5 G5 info move G5 visits 13 winrate 3846 prior 271 lcb 1771 order 7 pv G5 G7 F6 F7 info move D5 visits 1 winrate 0 prior 244 lcb 0 order 8 pv D5\nplay D6]
70 kosumi-pv
#? [D5 C5 D7 C7 E6 B6 D6 D8 E8 C8 D4 D3 E3 E2 C3 D2 F3 F2 G3]

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
#? [black F10 win rate 60\.9% visits 23 playouts 150]
120 kosumi-pv w
#? [F10 D10 D8 E9]
