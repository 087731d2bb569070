# Life and death at the end of the game: dead stones and the score, on
# positions from sgf/ (gogui-regress format; composed for this project,
# expected answers checked by hand and against GNU Go 3.8 where it agrees).
# Run with: cargo test --test regress (or gogui-regress -long "kosumi --seed 1 --playouts 500" life.tst)

# A White stone inside a Black eye of two points (Benson: unconditionally dead).
loadsgf sgf/life_stone_in_eye.sgf
10 final_status_list dead
#? [D9]
20 final_score
#? [B\+37\.5]

# Three Black stones inside White's living corner; Black's group has two eyes.
loadsgf sgf/life_two_eyes_inside.sgf
30 final_status_list dead
#? [F8 G8 G9]
40 final_score
#? [B\+20\.5]

# Nakade: White's three-point eye on the edge holds a Black stone on its
# vital point; White cannot make two eyes (GNU Go agrees).
loadsgf sgf/life_nakade_three.sgf
45 final_status_list dead
#? [A8 B8 C8 D8 D9]
46 final_score
#? [B\+11\.5]

# A lone stone in a 4x3 corner, one each way.
loadsgf sgf/life_four_by_three.sgf
50 final_status_list dead
#? [H1\sB8]
60 final_score
#? [B\+1\.5]

# White resigned: its strings in Black's area have three empty points
# between them and die by reading; the playouts alone left most of them
# alive (B+35.5). GNU Go lists the same seventeen stones.
loadsgf sgf/life_resigned_9x9.sgf
70 final_status_list dead
#? [G2\sJ2\sH3 D4 E4 F4 G4 H4\sA5\sC5 B6 C6\sB8 C8 D8\sH8\sE9]
80 final_score
#? [B\+73\.5]

# A lone stone in Black's closed corner and one in White's three-wide area.
loadsgf sgf/life_corner_invader.sgf
90 final_status_list dead
#? [H4\sB8]
95 final_score
#? [W\+7\.5]

# The lone Black stone in White's three-wide corridor (the life-and-death
# issue's 7x7): too big a region to read whole, read around the stone.
loadsgf sgf/life_corridor.sgf
100 final_status_list dead
#? [A4\sF4]
110 final_score
#? [W\+7\.5]
