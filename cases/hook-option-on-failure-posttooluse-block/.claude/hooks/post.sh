echo '{"decision":"block","reason":"POST-BLOCK-REASON"}'
