package dev.muster.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** A command on one Job: {@code muster COMMAND job NAME [--kubeconfig ...] [-n NS]}. */
abstract class JobCommand implements Callable<Integer> {
    @ParentCommand
    MusterCli cli;
    @Mixin
    JobRef job;
}
