#!/bin/sh
# A Little Town champion (protocol-little-town.md section 5): the first legal action each turn.
while read -r callback; do
    if [ "$callback" = jouer ]; then
        echo legal
        read -r legal
        echo "${legal%%;*}"
    else
        echo fin
    fi
done
