# SCID 5.0.2, headless: its twin finder with its default rules (`sc_base duplicates`), on a
# database it may change (the twins get the delete flag): prints the number of twins deleted,
# then the number (from 1) of each game deleted, one a line.
# scid twins.tcl TYPE DB
lassign $argv type db
set base [sc_base open $type $db]
puts [sc_base duplicates $base]
set n [sc_base numGames $base]
for {set g 1} {$g <= $n} {incr g} {
    if {[sc_base gameflag $base $g get D]} { puts $g }
}
sc_base close $base
