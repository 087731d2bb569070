# Settled end-of-game positions with dead stones (gogui-regress format;
# composed for this project): 9x9, 13x13 and 19x19 boards whose areas are
# closed by solid walls, with several dead groups each (single stones,
# pairs and lines, a nakade group, a false-eye group, a group with a dead
# stone in its eye) and seki beside dead stones. Each position asks for
# the dead stones (one string a line) and the area score (komi from the
# SGF). Expected answers by Go knowledge, cross-checked with GNU Go 3.8
# (--chinese-rules); a trailing * marks Kosumi's known failures.
# Run with: cargo test --release --test regress
# (or gogui-regress -long "kosumi --seed 1 --playouts 500" life_end.tst)
# The suite fixes what its answers depend on itself:
kosumi-param seed 1
kosumi-param threads 1
kosumi-param playouts 500

# Two three- and four-wide areas split by solid walls: White B6 B7 in Black's area
# and the Black stones G5 and J9 in White's are dead.
loadsgf sgf/life_end_9x9_columns.sgf
10 final_status_list dead
#? [G5\sB6 B7\sJ9]
loadsgf sgf/life_end_9x9_columns.sgf
20 final_score
#? [W\+16\.5]

# White's three-row edge area holds a dead Black pair (D8 E8); Black's four-row
# area holds a dead White stone (B3) and a dead White pair (G2 G3).
loadsgf sgf/life_end_9x9_bands.sgf
30 final_status_list dead
#? [G2 G3\sB3\sD8 E8]
loadsgf sgf/life_end_9x9_bands.sgf
40 final_score
#? [B\+1\.5]

# White's corner group is a bent three with Black on its vital point A1 (nakade,
# dead); White H2 in Black's area and Black F8 in White's are dead too.
loadsgf sgf/life_end_9x9_nakade.sgf
50 final_status_list dead
#? [C1 B2 C2 A3 B3\sH2\sF8]
loadsgf sgf/life_end_9x9_nakade.sgf
60 final_score
#? [B\+1\.5]

# A seki without eyes in the bottom-left (A1 and E1 shared, nothing there dead)
# beside two dead stones: Black C8 and White J2.
loadsgf sgf/life_end_9x9_seki.sgf
70 final_status_list dead
#? [J2\sC8]
loadsgf sgf/life_end_9x9_seki.sgf
80 final_score
#? [W\+14\.5]

# A bent boundary: a dead Black pair (F6 G6) inside White's corner, a dead White
# stone C3 in Black's left side and one (G2) under Black's wall.
loadsgf sgf/life_end_9x9_corner_invasion.sgf
90 final_status_list dead
#? [G2\sC3\sF6 G6]
loadsgf sgf/life_end_9x9_corner_invasion.sgf
100 final_score
#? [B\+5\.5]

# White's bottom group lives with eyes A1 and F1; the Black stone C1 in its other
# space is dead, as are the Black stones B8 and G7 in White's area.
loadsgf sgf/life_end_9x9_two_eyes.sgf
110 final_status_list dead
#? [C1\sG7\sB8]
loadsgf sgf/life_end_9x9_two_eyes.sgf
120 final_score
#? [W\+26\.5]

# Black's top-edge group has one real eye (A9) and a false one (E9, White F8):
# dead, with its two strings; the White stone E2 in Black's area is dead too.
loadsgf sgf/life_end_9x9_false_eye.sgf
130 final_status_list dead
#? [E2\sA8 B8 C8 D8 E8 B9 C9 D9\sF9 G9]
loadsgf sgf/life_end_9x9_false_eye.sgf
140 final_score
#? [W\+16\.5]

# Bands of territory on 13x13, White's top split in two by F11-F13: three dead
# Black groups there, two dead White stones between Black's walls and two dead
# White groups in Black's bottom rows.
loadsgf sgf/life_end_13x13_bands.sgf
150 final_status_list dead
#? [C3\sJ3 K3\sD7\sK7\sG11 H11\sC12\sK12]
loadsgf sgf/life_end_13x13_bands.sgf
160 final_score
#? [B\+57\.5]

# White's bottom-left group is a straight three with Black on its vital point C1
# (dead); bottom-right, White H1-N2 and Black K1-M1 are in seki (J1 and N1
# shared, not dead); Black E12 and L11 in White's area are dead.
loadsgf sgf/life_end_13x13_nakade_seki.sgf
170 final_status_list dead
#? [A1 E1 A2 B2 C2 D2 E2\sL11\sE12]
loadsgf sgf/life_end_13x13_nakade_seki.sgf
180 final_score
#? [B\+41\.5]

# Three-wide columns: White B10 B11 in Black's left area, a Black three-stone
# line G8-G10 in White's middle column (no eye can touch White's walls) and White
# M5 in Black's right area are dead.
loadsgf sgf/life_end_13x13_columns.sgf
190 final_status_list dead
#? [M5\sG8 G9 G10\sB10 B11]
loadsgf sgf/life_end_13x13_columns.sgf
200 final_score
#? [B\+31\.5]

# Dead stones touching the walls: Black C11 D11 and M11 on White's wall (White's
# top split by F11-F13, with C12 D12 M12 over them), White E8 F8 on Black's
# wall, White K6 and B4 in Black's areas.
loadsgf sgf/life_end_13x13_contact.sgf
210 final_status_list dead
#? [B4\sK6\sE8 F8\sC11 D11\sM11]
loadsgf sgf/life_end_13x13_contact.sgf
220 final_score
#? [B\+57\.5]

# 19x19 in three-row bands, each split by a column at J: Black D18, Q18 and K15
# L15 are dead in White's areas; White E10, P8 Q8, C3 and Q3 in Black's.
loadsgf sgf/life_end_19x19_bands.sgf
230 final_status_list dead
#? [C3\sQ3\sP8 Q8\sE10\sK15 L15\sD18\sQ18]
loadsgf sgf/life_end_19x19_bands.sgf
240 final_score
#? [B\+49\.5]

# Shapes on 19x19: bottom-left, White's bulky five holds three Black stones (nakade,
# dead); bottom-right, White lives with eyes T1 and O1 and the Black stone R1 in
# its two-point space is dead; White N4 O4 on Black's wall, and single dead stones
# and pairs in the bands, are dead.
loadsgf sgf/life_end_19x19_shapes.sgf
250 final_status_list dead
#? [A1 E1 A2 D2 E2 A3 B3 C3 D3\sR1\sN4 O4\sL9\sD14 D15\sS15\sJ18]
loadsgf sgf/life_end_19x19_shapes.sgf
260 final_score
#? [B\+21\.5]

# The bands with colours swapped, Black above and White below: White C18, L18 and
# G14 H14 are dead in Black's areas, Black M9, C6, P6, H3 and K2 in White's.
loadsgf sgf/life_end_19x19_swapped.sgf
270 final_status_list dead
#? [K2\sH3\sC6\sP6\sM9\sG14 H14\sC18\sL18]
loadsgf sgf/life_end_19x19_swapped.sgf
280 final_score
#? [W\+64\.5]
