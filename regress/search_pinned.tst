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
kosumi-param opening_book 0

# Go 9x9, empty board, Black to move: visits as GoGui's sboard shows them,
# then the principal variation and the win rate (same position: the tree
# grows by 300 playouts each time).
boardsize 9
clear_board
komi 7
10 kosumi-visits
#? ["" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" 4 1 3 77 "" ""\n"" "" 13 14 57 2 3 "" ""\n"" "" "" 32 "" 41 "" "" ""\n"" "" 2 5 3 12 9 "" ""\n"" "" 7 "" 8 7 "" "" ""\n"" "" "" "" "" "" "" "" ""\n"" "" "" "" "" "" "" "" ""]
20 kosumi-pv
#? [E6 D6 D5 C5 C4 D4]
30 kosumi-winrate
#? [black G7 win rate 55\.5% visits 165 playouts 300]

# A few moves in: genmove and reg_genmove answers, and the analysis of
# the reply.
play b e5
play w c4
40 reg_genmove b
#? [C6]
50 genmove b
#? [C6]
60 lz-genmove_analyze w 0
#? [info move D7 visits 91 winrate 5495 prior 256 lcb 4473 order 0 pv D7 C7 D6 D5 C5 D4 D3 E3 E2 F3 info move D6 visits 82 winrate 5122 prior 314 lcb 4059 order 1 pv D6 D5 C5 D7 C7 E6 B6 B7 C8 info move E4 visits 58 winrate 5000 prior 292 lcb 3754 order 2 pv E4 F4 F3 G3 G4 F5 info move E7 visits 56 winrate 4286 prior 340 lcb 3077 order 3 pv E7 D7 D8 C8 info move D5 visits 54 winrate 5278 prior 250 lcb 3973 order 4 pv D5 D6 E4 F4 F3 G3 info move C7 visits 47 winrate 4149 prior 338 lcb 2857 order 5 pv C7 D7 D6 E6 D5 D4 info move B6 visits 17 winrate 3529 prior 198 lcb 1731 order 6 pv B6 B7 B5 info move E3 visits 15 winrate 4667 prior 306 lcb 2481 order 7 pv E3 G3 F4 info move G4 visits 10 winrate 3500 prior 238 lcb 1369 order 8 pv G4 G6 info move G3 visits 9 winrate 4444 prior 238 lcb 1888 order 9 pv G3 E3 info move G5 visits 8 winrate 2500 prior 272 lcb 715 order 10 pv G5 G3 info move B5 visits 4 winrate 2500 prior 233 lcb 456 order 11 pv B5 info move G6 visits 2 winrate 5000 prior 245 lcb 945 order 12 pv G6 info move F7 visits 1 winrate 0 prior 245 lcb 0 order 13 pv F7\nplay D7]
70 kosumi-pv
#? [C7 D6 D5 C5 D4 D3 E3 E2 F3 F2]

# NoGo 7x7.
kosumi-game nogo
boardsize 7
80 kosumi-visits
#? ["" 1 7 "" "" "" ""\n"" "" "" "" "" "" ""\n6 "" "" "" 1 1 ""\n7 "" "" "" "" "" 2\n7 1 "" "" "" 2 ""\n"" 3 33 2 "" 15 ""\n1 "" 2 206 3 "" ""]
90 genmove b
#? [D1]
100 kosumi-pv
#? [D6 E2 G3 B2 A6 F1]

# Go 13x13 with a smaller budget.
kosumi-game go
boardsize 13
kosumi-param playouts 150
110 kosumi-winrate
#? [black D10 win rate 55\.0% visits 60 playouts 150]
120 kosumi-pv w
#? [K4 K10 L8 H11 J8 L9 M8]
