#!/bin/sh
# Answers every callback with `fin`: the smallest valid champion.
while read -r callback; do
  echo fin
done
