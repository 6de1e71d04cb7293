damon-top-tier.png
damon.md
scale-top-tier.png
scale.md
scale.png
walk-cost.md
