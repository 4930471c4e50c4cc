package dev.muster.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code muster completion bash|zsh}: the shell completion script picocli generates for the command tree.
 * The one script serves both shells: under zsh it loads zsh's bash-completion emulation first.
 */
@Command(name = "completion",
        description = {"Prints a shell completion script.",
                "bash: source <(muster completion bash); zsh: source <(muster completion zsh)"})
final class CompletionCommand implements Callable<Integer> {
    @ParentCommand
    MusterCli cli;
    @Spec
    CommandSpec spec;
    @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    /** The shells the script supports; constants are named as they are typed. */
    enum Shell { bash, zsh }

    @Override
    public Integer call() {
        cli.out.print(AutoComplete.bash("muster", spec.parent().commandLine()));
        return 0;
    }
}
