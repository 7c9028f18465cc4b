// Limits of decisions §3 (interface.md: 100 policies per organization; 250 rules per policy), in a
// module of their own: commands that check them offline (`policy eval`, `lint`) must not load the
// governance client and its answer schemas (valibot) to learn two numbers.
export const MAX_POLICIES = 100;
export const MAX_RULES = 250;
