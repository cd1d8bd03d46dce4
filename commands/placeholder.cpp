int bk_commands_anchor = 0;
