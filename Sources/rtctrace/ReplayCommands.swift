let replayCommands: [Command] = []
